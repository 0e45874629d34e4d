/*
 * An experiment, not part of DocStore: a SQLite function `member_scan(json, name)`
 * that finds a top-level member by scanning the text (skipping other members'
 * values by their brackets and quotes) instead of parsing the whole document as
 * json_extract does. It returns what json_extract(json, '$.name') returns for
 * plain documents (numbers, 1/0 for booleans, NULL, nested JSON text), but does
 * not decode string escapes or check that the text is valid JSON: it only
 * measures how much of a scan's time is SQLite's whole-document parse.
 *
 *   cc -O2 -fPIC -shared member_scan.c -o member_scan.so
 *   sqlite3 store.docstore '.load ./member_scan' "SELECT count(*) FROM batting WHERE member_scan(body, 'HR') >= 40"
 */
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT1
#include <stdlib.h>
#include <string.h>

static const char *skip_space(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r')) p++;
    return p;
}

/* p at an opening quote; returns the position after the closing one. */
static const char *skip_string(const char *p, const char *end) {
    p++;
    while (p < end) {
        const char *quote = memchr(p, '"', (size_t)(end - p));
        if (!quote) return end;
        const char *b = quote;
        int backslashes = 0;
        while (b > p && b[-1] == '\\') { b--; backslashes++; }
        if (backslashes % 2 == 0) return quote + 1;
        p = quote + 1;
    }
    return end;
}

static const char *skip_value(const char *p, const char *end) {
    p = skip_space(p, end);
    if (p >= end) return end;
    if (*p == '"') return skip_string(p, end);
    if (*p == '{' || *p == '[') {
        int depth = 0;
        while (p < end) {
            if (*p == '"') { p = skip_string(p, end); continue; }
            if (*p == '{' || *p == '[') depth++;
            else if ((*p == '}' || *p == ']') && --depth == 0) return p + 1;
            p++;
        }
        return end;
    }
    while (p < end && *p != ',' && *p != '}' && *p != ']') p++;
    return p;
}

static void member_scan(sqlite3_context *context, int argc, sqlite3_value **argv) {
    (void)argc;
    const char *json = (const char *)sqlite3_value_text(argv[0]);
    const char *name = (const char *)sqlite3_value_text(argv[1]);
    if (!json || !name) return;
    const char *end = json + sqlite3_value_bytes(argv[0]);
    int length = sqlite3_value_bytes(argv[1]);
    const char *p = skip_space(json, end);
    if (p >= end || *p != '{') return;
    p++;
    while (p < end) {
        p = skip_space(p, end);
        if (p >= end || *p != '"') return;
        const char *key = p + 1, *after = skip_string(p, end);
        int match = after - 1 - key == length && memcmp(key, name, (size_t)length) == 0;
        p = skip_space(after, end);
        if (p >= end || *p != ':') return;
        p = skip_space(p + 1, end);
        const char *value_end = skip_value(p, end);
        if (match) {
            switch (*p) {
            case '"': sqlite3_result_text(context, p + 1, (int)(value_end - p - 2), SQLITE_TRANSIENT); return;
            case 't': sqlite3_result_int(context, 1); return;
            case 'f': sqlite3_result_int(context, 0); return;
            case 'n': return;
            case '{': case '[': sqlite3_result_text(context, p, (int)(value_end - p), SQLITE_TRANSIENT); return;
            default:
                for (const char *q = p; q < value_end; q++) {
                    if (*q == '.' || *q == 'e' || *q == 'E') { sqlite3_result_double(context, strtod(p, NULL)); return; }
                }
                sqlite3_result_int64(context, strtoll(p, NULL, 10));
                return;
            }
        }
        p = skip_space(value_end, end);
        if (p < end && *p == ',') p++;
    }
}

int sqlite3_memberscan_init(sqlite3 *db, char **error, const sqlite3_api_routines *api) {
    (void)error;
    SQLITE_EXTENSION_INIT2(api);
    return sqlite3_create_function(db, "member_scan", 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS,
                                   NULL, member_scan, NULL, NULL);
}
