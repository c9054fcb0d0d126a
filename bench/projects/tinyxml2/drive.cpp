// bench/projects/tinyxml2/drive.cpp — bench/projects/tinyxml2.sh's
// workload program: tinyxml2-drive FILE MIX [ROUNDS] parses FILE (an XML
// catalog of bench/projects/pugixml/gen.py) and works on it the way MIX
// says (train or test: different paths through the library):
//   train  XMLDocument::LoadFile, whitespace preserved, entities processed;
//          attributes read as int and double; a child appended to every
//          item (InsertNewChildElement, SetText), flag attributes deleted;
//          printed indented
//   test   XMLDocument::Parse of the file read into memory, whitespace
//          collapsed, entities left as they are; attributes read as int64,
//          bool and unsigned; a child inserted first in every item
//          (NewElement, InsertFirstChild, XMLText as CDATA), desc children
//          deleted, prices rewritten; the document deep-cloned node by node
//          into another; printed compact
// then parses the printout again and walks both trees (an XMLVisitor);
// each step's results on stdout (counts, sizes, FNV-1a hashes)
#include "tinyxml2.h"
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

using namespace tinyxml2;

static unsigned long long fnv(const char *s, size_t n, unsigned long long h = 1469598103934665603ull)
{
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}
static unsigned long long fnvs(const char *s, unsigned long long h)
{
    return s ? fnv(s, strlen(s), h) : h;
}

struct walker : XMLVisitor {
    unsigned long long elems = 0, attrs = 0, texts = 0, cdata = 0, comments = 0, decls = 0, unknowns = 0, depth = 0,
                       depths = 0, hash = 1469598103934665603ull;
    double sum = 0;
    bool VisitEnter(const XMLElement &e, const XMLAttribute *a) override
    {
        elems++;
        depths += depth++;
        hash = fnvs(e.Name(), hash);
        for (; a; a = a->Next()) {
            attrs++;
            hash = fnvs(a->Name(), hash);
            hash = fnvs(a->Value(), hash);
            double d;
            if (a->QueryDoubleValue(&d) == XML_SUCCESS) sum += d;
        }
        return true;
    }
    bool VisitExit(const XMLElement &) override { depth--; return true; }
    bool Visit(const XMLText &t) override
    {
        texts++;
        if (t.CData()) cdata++;
        hash = fnvs(t.Value(), hash);
        return true;
    }
    bool Visit(const XMLComment &c) override { comments++; hash = fnvs(c.Value(), hash); return true; }
    bool Visit(const XMLDeclaration &d) override { decls++; hash = fnvs(d.Value(), hash); return true; }
    bool Visit(const XMLUnknown &u) override { unknowns++; hash = fnvs(u.Value(), hash); return true; }
};

static unsigned long long walk(const char *what, const XMLNode &n)
{
    walker w;
    n.Accept(&w);
    printf("%s: %llu elements %llu attributes %llu texts (%llu cdata) %llu comments %llu declarations %llu unknown"
           " depth %llu sum %.2f hash %016llx\n",
           what, w.elems, w.attrs, w.texts, w.cdata, w.comments, w.decls, w.unknowns, w.depths, w.sum, w.hash);
    return w.hash;
}

static std::string slurp(const char *path)
{
    std::string s;
    FILE *f = fopen(path, "rb");
    if (!f) return s;
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) s.append(buf, n);
    fclose(f);
    return s;
}

// the train mix's queries and edits of one item
static void train_item(XMLElement *it, int secn, unsigned long long &added, unsigned long long &removed,
                       long long &qty, double &price, unsigned long long &h)
{
    qty += it->IntAttribute("qty");
    price += it->DoubleAttribute("price");
    if (const XMLElement *nm = it->FirstChildElement("name")) h = fnvs(nm->GetText(), h);
    for (const XMLElement *t = it->FirstChildElement("tags") ? it->FirstChildElement("tags")->FirstChildElement("tag") : 0;
         t; t = t->NextSiblingElement("tag"))
        qty += t->IntAttribute("w");
    XMLElement *seen = it->InsertNewChildElement("seen");
    seen->SetAttribute("by", secn);
    seen->SetAttribute("ratio", it->DoubleAttribute("price") / (1 + it->IntAttribute("qty")));
    if (const XMLElement *nm = it->FirstChildElement("name")) seen->SetText(nm->GetText() ? nm->GetText() : "");
    added++;
    if (it->FindAttribute("flag")) { it->DeleteAttribute("flag"); removed++; }
}

// the test mix's
static void test_item(XMLDocument &doc, XMLElement *it, int secn, unsigned long long &added,
                      unsigned long long &removed, long long &qty, double &price, unsigned long long &h)
{
    int64_t id = 0;
    if (it->QueryInt64Attribute("id", &id) == XML_SUCCESS) qty += id % 97;
    bool flag = false;
    if (it->QueryBoolAttribute("flag", &flag) == XML_SUCCESS && flag) qty += 1000;
    qty += it->UnsignedAttribute("qty");
    float p = 0;
    if (it->QueryFloatAttribute("price", &p) == XML_SUCCESS) price += p;
    if (const XMLElement *parts = it->FirstChildElement("parts")) {
        for (const XMLElement *pt = parts->FirstChildElement(); pt; pt = pt->NextSiblingElement()) {
            int w = 0;
            if (pt->QueryIntAttribute("weight", &w) == XML_SUCCESS) qty += w;
            if (const XMLElement *l = pt->FirstChildElement("label")) h = fnvs(l->GetText(), h);
        }
    }
    if (const XMLElement *tags = it->FirstChildElement("tags"))
        for (const XMLElement *t = tags->LastChildElement("tag"); t; t = t->PreviousSiblingElement("tag")) qty++;
    XMLElement *mark = doc.NewElement("mark");
    mark->SetAttribute("section", secn);
    mark->SetAttribute("big", it->UnsignedAttribute("qty") > 25);
    XMLText *t = doc.NewText(it->Attribute("cat") ? it->Attribute("cat") : "");
    t->SetCData(true);
    mark->InsertEndChild(t);
    it->InsertFirstChild(mark);
    added++;
    if (XMLElement *d = it->FirstChildElement("desc")) { it->DeleteChild(d); removed++; }
    it->SetAttribute("price", (double)p * 1.5);
}

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: tinyxml2-drive FILE train|test [ROUNDS]\n"); return 2; }
    bool train = strcmp(argv[2], "train") == 0;
    int rounds = argc > 3 ? atoi(argv[3]) : 1;
    for (int r = 0; r < rounds; r++) {
        XMLDocument doc(train, train ? PRESERVE_WHITESPACE : COLLAPSE_WHITESPACE);
        XMLError err;
        if (train) {
            err = doc.LoadFile(argv[1]);
        } else {
            std::string s = slurp(argv[1]);
            err = doc.Parse(s.data(), s.size());
        }
        printf("load: %s (line %d)\n", XMLDocument::ErrorIDToName(err), doc.ErrorLineNum());
        if (err != XML_SUCCESS) return 1;
        walk("walk", doc);

        XMLElement *cat = doc.FirstChildElement("catalog");
        if (!cat) return 1;
        unsigned long long added = 0, removed = 0, sections = 0, h = 1469598103934665603ull;
        long long qty = 0;
        double price = 0;
        for (XMLElement *sec = cat->FirstChildElement("section"); sec; sec = sec->NextSiblingElement("section")) {
            sections++;
            int secn = sec->IntAttribute("n");
            h = fnvs(sec->Attribute("name"), h);
            for (XMLElement *it = sec->FirstChildElement("item"); it; it = it->NextSiblingElement("item")) {
                if (train) train_item(it, secn, added, removed, qty, price, h);
                else test_item(doc, it, secn, added, removed, qty, price, h);
            }
        }
        printf("queries: %llu sections qty %lld price %.2f hash %016llx\n", sections, qty, price, h);
        printf("edits: %llu added %llu removed\n", added, removed);
        unsigned long long edited = walk("edited", doc);

        if (!train) {
            XMLDocument copy(false, COLLAPSE_WHITESPACE);
            for (const XMLNode *n = doc.FirstChild(); n; n = n->NextSibling()) copy.InsertEndChild(n->DeepClone(&copy));
            unsigned long long cloned = walk("cloned", copy);
            printf("clone: %s\n", cloned == edited ? "the same walk" : "a different walk");
        }

        XMLPrinter out(0, !train);
        doc.Print(&out);
        printf("printed: %s %d bytes %016llx\n", train ? "indented" : "compact", out.CStrSize() - 1,
               fnv(out.CStr(), (size_t)out.CStrSize() - 1));
        XMLDocument again(train, train ? PRESERVE_WHITESPACE : COLLAPSE_WHITESPACE);
        err = again.Parse(out.CStr(), (size_t)out.CStrSize() - 1);
        printf("reload: %s\n", XMLDocument::ErrorIDToName(err));
        walk("reloaded", again);
    }
    return 0;
}
