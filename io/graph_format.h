/* graph_format.h — the names of the output formats (coarsen_format): the
 * word of --format options, and the file extension each format is written
 * with and recognised by. */
#ifndef IO_GRAPH_FORMAT_H
#define IO_GRAPH_FORMAT_H

#include "coarsen.h"

/* "metis", "mtx" or "parhip" into *out [out]; 0, or -1 for any other word. */
int graph_format_parse(const char *word, coarsen_format *out);

/* The extension a format is written with, without the dot: "graph", "mtx",
 * "parhip" (static storage). */
const char *graph_format_ext(coarsen_format fmt);

/* The format path's name implies, ignoring a final ".gz": .graph and .metis
 * are METIS, .mtx Matrix Market, .parhip and .bgf ParHIP binary
 * (case-insensitive). 0, or -1 when the name implies none. */
int graph_format_from_name(const char *path, coarsen_format *out);

/* The word of a format ("metis", "mtx", "parhip"), for messages. */
const char *graph_format_word(coarsen_format fmt);

#endif
