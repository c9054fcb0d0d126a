// bench/projects/yaml-cpp/drive.cc — the workload of bench/projects/yaml-cpp.sh:
// yaml-cpp over a corpus of YAML documents (bench/projects/yaml-cpp/gen.py:
// each after a line "#@@ N", one in 16 malformed), as a program that reads
// configuration files and writes them back would use it.
//
//   yaml-drive train|test FILE ROUNDS
//
// train: each document loaded (YAML::Load; a malformed one throws
// ParserException, caught), walked, each scalar read as an integer, else
// a double, else a bool, through as<T>() and its TypedBadConversion
// exception (most scalars throw once or more: exceptions unwind through
// the library's counted code), then emitted in block style.  test: each
// document loaded and rebuilt as a new tree through the Node API (maps'
// keys prefixed, sequences reversed, scalars read with as<T>(fallback),
// no exception), a subscript of a scalar (BadSubscript) tried on every
// third, cloned, compared and emitted in flow style; then the whole file
// through the event parser (YAML::Parser with a counting EventHandler),
// document by document.  Every section prints its counts and an FNV-1a
// hash of what it read or emitted, so that builds can be compared output
// for output.
#include <yaml-cpp/yaml.h>
#include <yaml-cpp/eventhandler.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

static uint64_t fnv(uint64_t h, const std::string& s) {
    for (char c : s) {
        h ^= (unsigned char)c;
        h *= 1099511628211ull;
    }
    return h;
}

struct Section {
    const char* name;
    long count = 0;
    uint64_t hash = 14695981039346656037ull;
    explicit Section(const char* n) : name(n) {}
    void add(const std::string& s) { count++; hash = fnv(hash, s); }
};

// the documents of FILE, split at its "#@@" lines
static std::vector<std::string> documents(const char* file) {
    std::ifstream in(file);
    std::vector<std::string> docs;
    std::string line;
    while (std::getline(in, line)) {
        if (line.compare(0, 3, "#@@") == 0) docs.emplace_back();
        else if (!docs.empty()) docs.back() += line + "\n";
    }
    return docs;
}

// train's walk: each scalar as long, else double, else bool, else a string
static void walk_typed(const YAML::Node& n, std::vector<Section>& s) {
    switch (n.Type()) {
    case YAML::NodeType::Scalar:
        try {
            long v = n.as<long>();
            s[1].count += v % 1000;
            return;
        } catch (const YAML::BadConversion&) {
            s[2].count++;
        }
        try {
            double d = n.as<double>();
            s[3].add(std::to_string((long)(d * 100)));
            return;
        } catch (const YAML::BadConversion&) {
        }
        try {
            bool b = n.as<bool>();
            s[4].add(b ? "t" : "f");
        } catch (const YAML::BadConversion&) {
            s[5].add(n.Scalar());
        }
        return;
    case YAML::NodeType::Sequence:
        for (const YAML::Node& e : n) walk_typed(e, s);
        return;
    case YAML::NodeType::Map:
        for (const auto& kv : n) {
            s[6].add(kv.first.as<std::string>());
            walk_typed(kv.second, s);
        }
        return;
    case YAML::NodeType::Null:
        s[7].count++;
        return;
    default:
        return;
    }
}

static void train(const std::vector<std::string>& docs, std::vector<Section>& s) {
    for (const std::string& d : docs) {
        YAML::Node n;
        try {
            n = YAML::Load(d);
        } catch (const YAML::ParserException& e) {
            s[0].add(e.msg);
            continue;
        }
        walk_typed(n, s);
        YAML::Emitter out;
        out << n;
        s[8].add(out.c_str());
    }
}

// test's rebuild: a new tree through the Node API, no exception
static YAML::Node rebuild(const YAML::Node& n, std::vector<Section>& s) {
    YAML::Node r;
    switch (n.Type()) {
    case YAML::NodeType::Scalar: {
        long v = n.as<long>(-1);
        if (v != -1) { s[1].count += v % 997; return YAML::Node(v * 3); }
        double d = n.as<double>(-0.5);
        if (d != -0.5) { s[2].count++; return YAML::Node(d / 2); }
        std::string t = n.as<std::string>("");
        s[3].add(t);
        return YAML::Node(t + "!");
    }
    case YAML::NodeType::Sequence:
        for (std::size_t i = n.size(); i-- > 0;) r.push_back(rebuild(n[i], s));
        return r;
    case YAML::NodeType::Map:
        for (const auto& kv : n) {
            std::string k = "k_" + kv.first.as<std::string>();
            r[k] = rebuild(kv.second, s);
            if (!n[kv.first.as<std::string>()]) s[4].count++;
        }
        return r;
    default:
        return YAML::Node(YAML::NodeType::Null);
    }
}

// the event parser's handler: counts, and a hash of the scalars and tags
struct Counter : YAML::EventHandler {
    Section& s;
    long docs = 0, seqs = 0, maps = 0, aliases = 0, nulls = 0;
    explicit Counter(Section& sec) : s(sec) {}
    void OnDocumentStart(const YAML::Mark&) override { docs++; }
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark&, YAML::anchor_t) override { nulls++; }
    void OnAlias(const YAML::Mark&, YAML::anchor_t a) override { aliases += a; }
    void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t, const std::string& v) override {
        s.add(tag + v);
        s.count += m.line % 7;
    }
    void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value st) override {
        seqs += 1 + st;
    }
    void OnSequenceEnd() override {}
    void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value st) override {
        maps += 1 + st;
    }
    void OnMapEnd() override {}
};

static void test(const std::vector<std::string>& docs, std::vector<Section>& s) {
    long i = 0;
    for (const std::string& d : docs) {
        YAML::Node n;
        try {
            n = YAML::Load(d);
        } catch (const YAML::Exception& e) {
            s[0].add(e.msg);
            continue;
        }
        YAML::Node r = rebuild(n, s);
        if (i++ % 3 == 0) {
            try {
                YAML::Node x = n.IsScalar() ? n : n.begin()->IsDefined() ? YAML::Node("scalar") : n;
                const YAML::Node& cx = x;
                s[5].add(cx["no such key"].as<std::string>("absent"));
            } catch (const YAML::Exception& e) {
                s[5].add(e.msg);
            }
        }
        YAML::Node c = YAML::Clone(r);
        s[6].count += c.is(r) ? 1 : 2;
        YAML::Emitter out;
        out.SetMapFormat(YAML::Flow);
        out.SetSeqFormat(i % 2 ? YAML::Flow : YAML::Block);
        out.SetDoublePrecision(6);
        out << c;
        s[7].add(out.c_str());
    }
    // the event parser, document by document (a malformed one ends its document)
    Counter h(s[8]);
    for (const std::string& d : docs) {
        std::istringstream in(d);
        YAML::Parser p(in);
        try {
            while (p.HandleNextDocument(h)) {}
        } catch (const YAML::Exception& e) {
            s[0].add(e.msg);
        }
    }
    s[9].count = h.docs * 1000003 + h.seqs * 101 + h.maps * 7 + h.aliases + h.nulls;
}

int main(int argc, char** argv) {
    if (argc != 4) {
        std::fprintf(stderr, "usage: yaml-drive train|test FILE ROUNDS\n");
        return 2;
    }
    std::string mix = argv[1];
    std::vector<std::string> docs = documents(argv[2]);
    int rounds = std::atoi(argv[3]);
    std::vector<Section> s;
    for (const char* n : {"errors", "a", "b", "c", "d", "e", "f", "g", "h", "i"}) s.emplace_back(n);
    for (int r = 0; r < rounds; r++) {
        if (mix == "train") train(docs, s);
        else test(docs, s);
    }
    std::printf("%s: %zu documents, %d rounds\n", mix.c_str(), docs.size(), rounds);
    for (const Section& x : s) std::printf("%-7s %ld %016llx\n", x.name, x.count, (unsigned long long)x.hash);
    return 0;
}
