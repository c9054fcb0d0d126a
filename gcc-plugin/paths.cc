/* paths.cc — how the plugin spells the paths it keeps: the unit's source
 * key (UNIT chunk `source`, the `src=` keys of a feedback file) and the
 * paths hashed into the unit's identity (unit.cc).  Neither may depend on
 * where the tree lies, so that a profile taken in one checkout applies to
 * a rebuild in another, and two compiles of one tree in two places give
 * byte-identical objects:
 *
 *   1. the path is made absolute against the compile's working directory
 *      and normalised as text ("." and ".." components and "//" removed;
 *      symbolic links are not followed, as GCC's prefix maps do not);
 *   2. the last -fplugin-arg-perfinst-prefix-map=OLD=NEW whose OLD is a
 *      leading part of it (whole components) replaces that part by NEW,
 *      as GCC's -ffile-prefix-map does; without one, GCC's own
 *      -fprofile-prefix-map and -ffile-prefix-map apply;
 *   3. else it is written relative to the working directory (the build
 *      root), with ".." where needed, when the two have more than "/" in
 *      common;
 *   4. else it stays absolute (a file outside the tree: /usr/include/...).
 *
 *     cwd /a/zstd/lib,      legacy/zstd_v06.c           -> legacy/zstd_v06.c
 *     cwd /a/zstd/programs, /a/zstd/lib/common/xxhash.c  -> ../lib/common/xxhash.c
 *     cwd /tmp/b,           /a/zstd/lib/x.c             -> /a/zstd/lib/x.c (step 4)
 *        with prefix-map=/a/zstd=zstd                   -> zstd/lib/x.c
 */
#include "plugin.h"
#include "file-prefix-map.h"
#include <string>
#include <vector>

struct prefix_map {
    std::string old_prefix; /* absolute, normalised */
    std::string new_prefix; /* as given, normalised ("" for ".") */
};
static std::vector<prefix_map> *maps;

/* "a/./b//c/../d" -> "a/b/d"; leading ".." kept in a relative path, dropped
 * at the root of an absolute one; "" for "." */
static std::string normalise(const std::string &p)
{
    bool abs = !p.empty() && p[0] == '/';
    std::vector<std::string> parts;
    size_t i = 0;
    while (i <= p.size()) {
        size_t j = p.find('/', i);
        if (j == std::string::npos)
            j = p.size();
        std::string c = p.substr(i, j - i);
        if (c == "..") {
            if (!parts.empty() && parts.back() != "..")
                parts.pop_back();
            else if (!abs)
                parts.push_back(c);
        } else if (!c.empty() && c != ".")
            parts.push_back(c);
        i = j + 1;
    }
    std::string r = abs ? "/" : "";
    for (size_t k = 0; k < parts.size(); k++)
        r += (k ? "/" : "") + parts[k];
    return r;
}

static std::string absolute(const char *path)
{
    if (path[0] == '/')
        return normalise(path);
    const char *pwd = getpwd();
    return normalise(std::string(pwd ? pwd : "/") + "/" + path);
}

/* PATH below PREFIX (both absolute and normalised): the rest, without its
 * leading "/", in *rest; false if PREFIX is not a leading part of PATH. */
static bool below(const std::string &path, const std::string &prefix, std::string *rest)
{
    if (prefix == "/") {
        *rest = path.substr(1);
        return true;
    }
    if (path.compare(0, prefix.size(), prefix) != 0 ||
        (path.size() > prefix.size() && path[prefix.size()] != '/'))
        return false;
    *rest = path.size() > prefix.size() ? path.substr(prefix.size() + 1) : "";
    return true;
}

static std::string joined(const std::string &a, const std::string &b)
{
    if (a.empty())
        return b.empty() ? "." : b;
    if (b.empty())
        return a;
    return normalise(a + "/" + b);
}

/* -fplugin-arg-perfinst-prefix-map=OLD=NEW (perfinst.cc); false when
 * malformed (no "=", or OLD empty). */
bool pi_add_prefix_map(const char *arg)
{
    const char *eq = arg ? strchr(arg, '=') : NULL;
    if (!eq || eq == arg)
        return false;
    if (!maps)
        maps = new std::vector<prefix_map>;
    prefix_map m;
    m.old_prefix = absolute(std::string(arg, eq - arg).c_str());
    m.new_prefix = normalise(eq + 1);
    maps->push_back(m);
    return true;
}

/* The key of PATH (steps 1-4 above), in GC memory. */
const char *pi_path_key(const char *path)
{
    if (!path || !*path || path[0] == '<') /* <stdin>, <built-in> */
        return path;
    std::string abs = absolute(path), rest;
    for (size_t i = maps ? maps->size() : 0; i-- > 0;)
        if (below(abs, (*maps)[i].old_prefix, &rest))
            return ggc_strdup(joined((*maps)[i].new_prefix, rest).c_str());
    const char *gcc_map = remap_profile_filename(abs.c_str());
    if (gcc_map && strcmp(gcc_map, abs.c_str()) != 0)
        return ggc_strdup(normalise(gcc_map).c_str());
    std::string cwd = absolute(".");
    size_t common = 0, k = 0; /* bytes of the common leading components */
    while (k <= abs.size() && k <= cwd.size()) {
        bool end_a = k == abs.size() || abs[k] == '/', end_c = k == cwd.size() || cwd[k] == '/';
        if (end_a && end_c && k > 0)
            common = k;
        if (k == abs.size() || k == cwd.size() || abs[k] != cwd[k])
            break;
        k++;
    }
    if (common == 0)
        return ggc_strdup(abs.c_str()); /* only "/" in common */
    std::string up;
    for (size_t j = common; j < cwd.size(); j++)
        if (cwd[j] == '/')
            up += up.empty() ? ".." : "/..";
    return ggc_strdup(joined(up, common < abs.size() ? abs.substr(common + 1) : "").c_str());
}

/* The unit's source key: what its UNIT chunk and a plan's src= keys hold. */
const char *pi_unit_source(void)
{
    static const char *key;
    if (!key)
        /* a copy of our own: pi_path_key's string is GC memory, and a static
           pointer is no GC root (a collection during the unit freed it) */
        key = xstrdup(pi_path_key(main_input_filename ? main_input_filename : "<stdin>"));
    return key;
}
