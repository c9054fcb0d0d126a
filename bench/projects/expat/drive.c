/* bench/projects/expat/drive.c FILE MODE... — the expat recipe's workload
 * (bench/projects/expat.sh): FILE parsed once per MODE by libexpat, each
 * pass's event counts and a hash of its events on stdout.  Every parser
 * gets a fixed hash salt (XML_SetHashSalt): expat otherwise draws one from
 * getrandom(2) per parser, and its hash tables' collisions (lookup's
 * loop) would differ from run to run.
 *   canon   no namespaces; read(2) into XML_GetBuffer 8 KiB at a time,
 *           XML_ParseBuffer (as xmlwf -r); elements, sorted attributes,
 *           text, PIs, comments and CDATA hashed (xmlwf's canonical XML)
 *   copy    no namespaces; the whole file through XML_Parse in 64 KiB
 *           pieces with only a default handler (xmlwf -c: the input
 *           copied), its text hashed
 *   ns      namespace processing (XML_ParserCreateNS), XML_Parse in 64 KiB
 *           pieces; start and end of namespace declarations, the expanded
 *           names, specified-attribute counts, the positions
 *           (XML_GetCurrentLineNumber, ColumnNumber, ByteIndex) of each
 *           element, as xmlwf -m's meta XML, doctype, entity and attribute
 *           list declarations and skipped entities hashed */
#include <expat.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static unsigned long long h = 1469598103934665603ULL;
static unsigned long nel, natt, nchar, npi, ncom, ncdata, nns, ndecl;
static XML_Parser cur;

static void mix(const void *p, size_t n) {
    const unsigned char *s = p;
    while (n--) { h ^= *s++; h *= 1099511628211ULL; }
}
static void mixs(const XML_Char *s) { if (s) mix(s, strlen(s) + 1); }
static void mixn(unsigned long long v) { mix(&v, sizeof v); }

static int attcmp(const void *a, const void *b) {
    return strcmp(*(const XML_Char *const *)a, *(const XML_Char *const *)b);
}

static void XMLCALL start(void *u, const XML_Char *name, const XML_Char **atts) {
    int n = 0, i;
    (void)u;
    nel++;
    while (atts[n]) n += 2;
    natt += n / 2;
    /* canonical XML: the attributes sorted by name (pairs) */
    qsort(atts, n / 2, 2 * sizeof *atts, attcmp);
    mixs(name);
    for (i = 0; i < n; i++) mixs(atts[i]);
}
static void XMLCALL start_meta(void *u, const XML_Char *name, const XML_Char **atts) {
    start(u, name, atts);
    mixn(XML_GetSpecifiedAttributeCount(cur));
    mixn(XML_GetCurrentLineNumber(cur));
    mixn(XML_GetCurrentColumnNumber(cur));
    mixn((unsigned long long)XML_GetCurrentByteIndex(cur));
}
static void XMLCALL end(void *u, const XML_Char *name) { (void)u; mixs(name); }
static void XMLCALL chars(void *u, const XML_Char *s, int len) { (void)u; nchar += len; mix(s, len); }
static void XMLCALL pi(void *u, const XML_Char *t, const XML_Char *d) { (void)u; npi++; mixs(t); mixs(d); }
static void XMLCALL comment(void *u, const XML_Char *d) { (void)u; ncom++; mixs(d); }
static void XMLCALL cdata(void *u) { (void)u; ncdata++; }
static void XMLCALL cdata_end(void *u) { (void)u; mixn(ncdata); }
static void XMLCALL dflt(void *u, const XML_Char *s, int len) { (void)u; nchar += len; mix(s, len); }
static void XMLCALL ns_start(void *u, const XML_Char *p, const XML_Char *uri) { (void)u; nns++; mixs(p); mixs(uri); }
static void XMLCALL ns_end(void *u, const XML_Char *p) { (void)u; mixs(p); }
static void XMLCALL doctype(void *u, const XML_Char *n, const XML_Char *s, const XML_Char *p, int i) {
    (void)u; ndecl++; mixs(n); mixs(s); mixs(p); mixn(i);
}
static void XMLCALL entity(void *u, const XML_Char *n, int pe, const XML_Char *v, int vl, const XML_Char *b,
                           const XML_Char *s, const XML_Char *p, const XML_Char *nn) {
    (void)u; (void)b; ndecl++; mixs(n); mixn(pe); if (v) mix(v, vl); mixs(s); mixs(p); mixs(nn);
}
static void XMLCALL attlist(void *u, const XML_Char *e, const XML_Char *a, const XML_Char *t, const XML_Char *d, int r) {
    (void)u; ndecl++; mixs(e); mixs(a); mixs(t); mixs(d); mixn(r);
}
static void XMLCALL skipped(void *u, const XML_Char *n, int pe) { (void)u; mixs(n); mixn(pe); }

static char *slurp(const char *f, size_t *n) {
    FILE *fp = fopen(f, "rb");
    char *b;
    if (!fp) { perror(f); exit(2); }
    fseek(fp, 0, SEEK_END);
    *n = ftell(fp);
    rewind(fp);
    b = malloc(*n + 1);
    if (!b || fread(b, 1, *n, fp) != *n) { perror(f); exit(2); }
    fclose(fp);
    return b;
}

static void fail(const char *f, const char *mode) {
    fprintf(stderr, "%s (%s): line %lu: %s\n", f, mode, XML_GetCurrentLineNumber(cur),
            XML_ErrorString(XML_GetErrorCode(cur)));
    exit(1);
}

int main(int argc, char **argv) {
    int i;
    if (argc < 3) { fprintf(stderr, "usage: expat-drive FILE MODE...\n"); return 2; }
    for (i = 2; i < argc; i++) {
        const char *mode = argv[i];
        int ns = strcmp(mode, "ns") == 0;
        h = 1469598103934665603ULL;
        nel = natt = nchar = npi = ncom = ncdata = nns = ndecl = 0;
        cur = ns ? XML_ParserCreateNS(NULL, '|') : XML_ParserCreate(NULL);
        XML_SetHashSalt(cur, 0x5eed1234UL);
        if (strcmp(mode, "copy") == 0) {
            XML_SetDefaultHandler(cur, dflt);
        } else {
            XML_SetElementHandler(cur, ns ? start_meta : start, end);
            XML_SetCharacterDataHandler(cur, chars);
            XML_SetProcessingInstructionHandler(cur, pi);
            XML_SetCommentHandler(cur, comment);
            XML_SetCdataSectionHandler(cur, cdata, cdata_end);
        }
        if (ns) {
            XML_SetNamespaceDeclHandler(cur, ns_start, ns_end);
            XML_SetStartDoctypeDeclHandler(cur, doctype);
            XML_SetEntityDeclHandler(cur, entity);
            XML_SetAttlistDeclHandler(cur, attlist);
            XML_SetSkippedEntityHandler(cur, skipped);
            XML_SetReturnNSTriplet(cur, 1);
        }
        if (strcmp(mode, "canon") == 0) {
            int fd = open(argv[1], O_RDONLY);
            if (fd < 0) { perror(argv[1]); return 2; }
            for (;;) {
                void *b = XML_GetBuffer(cur, 8192);
                ssize_t r = read(fd, b, 8192);
                if (r < 0) { perror(argv[1]); return 2; }
                if (XML_ParseBuffer(cur, (int)r, r == 0) == XML_STATUS_ERROR) fail(argv[1], mode);
                if (r == 0) break;
            }
            close(fd);
        } else if (ns || strcmp(mode, "copy") == 0) {
            size_t n, o;
            char *b = slurp(argv[1], &n);
            for (o = 0; o < n || o == 0; o += 65536) {
                size_t k = n - o < 65536 ? n - o : 65536;
                if (XML_Parse(cur, b + o, (int)k, o + k >= n) == XML_STATUS_ERROR) fail(argv[1], mode);
                if (o + k >= n) break;
            }
            free(b);
        } else {
            fprintf(stderr, "expat-drive: unknown mode %s\n", mode);
            return 2;
        }
        printf("%s %s: %lu elements, %lu attributes, %lu chars, %lu PIs, %lu comments, %lu CDATA, %lu ns, %lu decls, hash %016llx\n",
               argv[1], mode, nel, natt, nchar, npi, ncom, ncdata, nns, ndecl, h);
        XML_ParserFree(cur);
    }
    return 0;
}
