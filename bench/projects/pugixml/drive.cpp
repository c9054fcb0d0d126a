// bench/projects/pugixml/drive.cpp — bench/projects/pugixml.sh's workload
// program: pugixml-drive FILE MIX [ROUNDS] loads FILE (comments, PIs,
// CDATA, declarations kept), walks the tree (xml_tree_walker), runs MIX's
// XPath queries (train or test: different ones), edits the tree (a child
// appended to every item, attributes renamed and removed), saves it
// indented and raw, parses the raw save again and compares the two trees'
// walks; each step's results on stdout (sizes, counts, FNV-1a hashes)
#include "pugixml.hpp"
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static unsigned long long fnv(const char *s, size_t n, unsigned long long h = 1469598103934665603ull)
{
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211ull;
    return h;
}

struct walker : pugi::xml_tree_walker {
    unsigned long long elems = 0, attrs = 0, texts = 0, depths = 0, hash = 1469598103934665603ull;
    double sum = 0;
    bool for_each(pugi::xml_node &n) override
    {
        depths += (unsigned)depth();
        switch (n.type()) {
        case pugi::node_element:
            elems++;
            hash = fnv(n.name(), strlen(n.name()), hash);
            for (pugi::xml_attribute a : n.attributes()) {
                attrs++;
                hash = fnv(a.name(), strlen(a.name()), hash);
                hash = fnv(a.value(), strlen(a.value()), hash);
                sum += a.as_double();
            }
            break;
        case pugi::node_pcdata: case pugi::node_cdata: case pugi::node_comment: case pugi::node_pi:
            texts++;
            hash = fnv(n.value(), strlen(n.value()), hash);
            break;
        default: break;
        }
        return true;
    }
};

struct string_writer : pugi::xml_writer {
    std::string s;
    void write(const void *data, size_t size) override { s.append((const char *)data, size); }
};

static void walk(const char *what, pugi::xml_document &doc)
{
    walker w;
    doc.traverse(w);
    printf("%s: %llu elements %llu attributes %llu texts depth %llu sum %.2f hash %016llx\n", what, w.elems, w.attrs,
           w.texts, w.depths, w.sum, w.hash);
}

static const char *train_q[] = {
    "count(//item)",
    "sum(//item/@qty)",
    "count(//item[@price > 250])",
    "count(//item[tags/tag/@w >= 5])",
    "count(//section[count(item) > 20])",
    "string(//item[@cat = 'ipjd'][last()]/name)",
    "count(//desc[contains(., 'ea')])",
    "sum(//part/@weight) div count(//part)",
    "count(//item[position() mod 7 = 3]/following-sibling::item[1][@flag])",
    "concat(substring-before(string(//section[5]/@name), 'e'), '|', translate(string(//item[10]/name), 'aeiou', 'AEIOU'))",
};
static const char *test_q[] = {
    "count(//item[@flag = 'true'])",
    "sum(//item[@cat = 'mkodhthee']/@price)",
    "count(//tag[string-length(.) > 5])",
    "count(//item[not(desc)][parts])",
    "count(//part[@weight < 100]/ancestor::section)",
    "string(//item[@qty = 7][1]/@id)",
    "count(//name[starts-with(normalize-space(.), 'e')])",
    "floor(sum(//item/@price) div count(//section))",
    "count(//comment()) + count(//processing-instruction()) + count(//code)",
    "count(//item[preceding-sibling::item[1]/@cat = @cat])",
    "normalize-space(concat(string(//section[last()]/@name), ' ', string(//item[@id = '100']/@cat)))",
};

int main(int argc, char **argv)
{
    if (argc < 3) { fprintf(stderr, "usage: pugixml-drive FILE train|test [ROUNDS]\n"); return 2; }
    bool train = strcmp(argv[2], "train") == 0;
    int rounds = argc > 3 ? atoi(argv[3]) : 1;
    unsigned opts = pugi::parse_full;
    for (int r = 0; r < rounds; r++) {
        pugi::xml_document doc;
        pugi::xml_parse_result res = doc.load_file(argv[1], opts);
        printf("load: %s at %ld\n", res.description(), (long)res.offset);
        if (!res) return 1;
        walk("walk", doc);

        // XPath
        const char **q = train ? train_q : test_q;
        size_t nq = train ? sizeof train_q / sizeof *q : sizeof test_q / sizeof *q;
        for (size_t i = 0; i < nq; i++) {
            pugi::xpath_query query(q[i]);
            switch (query.return_type()) {
            case pugi::xpath_type_number: printf("xpath %zu: %.3f\n", i, query.evaluate_number(doc)); break;
            case pugi::xpath_type_string: printf("xpath %zu: '%s'\n", i, query.evaluate_string(doc).c_str()); break;
            case pugi::xpath_type_boolean: printf("xpath %zu: %d\n", i, query.evaluate_boolean(doc)); break;
            default: printf("xpath %zu: %zu nodes\n", i, query.evaluate_node_set(doc).size()); break;
            }
        }
        pugi::xpath_node_set items = doc.select_nodes(train ? "//item[@qty > 25]" : "//section/item[tags]");
        printf("selected: %zu\n", items.size());

        // edits
        unsigned long long added = 0, removed = 0;
        for (pugi::xml_node sec : doc.child("catalog").children("section")) {
            for (pugi::xml_node it : sec.children("item")) {
                pugi::xml_node seen = it.append_child(train ? "seen" : "mark");
                seen.append_attribute("by").set_value(sec.attribute("n").as_int());
                seen.append_child(pugi::node_pcdata).set_value(it.child_value("name"));
                added++;
                if (pugi::xml_attribute f = it.attribute("flag")) { it.remove_attribute(f); removed++; }
                if (it.attribute("qty").as_int() % 3 == 0) it.attribute("qty").set_name("count");
                if (!train && it.child("desc")) { it.remove_child("desc"); removed++; }
            }
        }
        printf("edits: %llu added %llu removed\n", added, removed);

        // saves
        string_writer indented, raw;
        doc.save(indented, "  ", pugi::format_indent | (train ? 0 : pugi::format_indent_attributes));
        doc.save(raw, "", pugi::format_raw | pugi::format_no_declaration);
        printf("saved: indented %zu bytes %016llx raw %zu bytes %016llx\n", indented.s.size(),
               fnv(indented.s.data(), indented.s.size()), raw.s.size(), fnv(raw.s.data(), raw.s.size()));
        walk("edited", doc);
        pugi::xml_document again;
        res = again.load_buffer(raw.s.data(), raw.s.size(), opts);
        printf("reload: %s\n", res.description());
        walk("reloaded", again);
    }
    return 0;
}
