/* graph_format.c — format words and extensions; see graph_format.h. */
#include "io/graph_format.h"

#include "core/path_suffix.h"

#include <string.h>
#include <strings.h>

static const struct {
    const char *word, *ext, *alias;
    coarsen_format fmt;
} formats[] = {
    {"metis", "graph", "metis", COARSEN_FORMAT_METIS},
    {"mtx", "mtx", NULL, COARSEN_FORMAT_MTX},
    {"parhip", "parhip", "bgf", COARSEN_FORMAT_PARHIP},
};
#define NFORMATS (sizeof formats / sizeof formats[0])

int graph_format_parse(const char *word, coarsen_format *out)
{
    for (size_t k = 0; k < NFORMATS; k++)
        if (!strcmp(word, formats[k].word)) {
            *out = formats[k].fmt;
            return 0;
        }
    return -1;
}

const char *graph_format_ext(coarsen_format fmt)
{
    for (size_t k = 0; k < NFORMATS; k++)
        if (formats[k].fmt == fmt)
            return formats[k].ext;
    return "graph";
}

const char *graph_format_word(coarsen_format fmt)
{
    for (size_t k = 0; k < NFORMATS; k++)
        if (formats[k].fmt == fmt)
            return formats[k].word;
    return "?";
}

/* 1 when name[0..len) ends in "." ext (case-insensitive). */
static int has_ext(const char *name, size_t len, const char *ext)
{
    size_t e = ext ? strlen(ext) : 0;
    return e && len > e && name[len - e - 1] == '.' && !strncasecmp(name + len - e, ext, e);
}

int graph_format_from_name(const char *path, coarsen_format *out)
{
    size_t len = strlen(path);
    if (path_ends_with(path, ".gz"))
        len -= 3;
    for (size_t k = 0; k < NFORMATS; k++)
        if (has_ext(path, len, formats[k].ext) || has_ext(path, len, formats[k].alias)) {
            *out = formats[k].fmt;
            return 0;
        }
    return -1;
}
