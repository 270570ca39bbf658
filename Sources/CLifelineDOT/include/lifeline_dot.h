#ifndef LIFELINE_DOT_H
#define LIFELINE_DOT_H
#include <graphviz/cgraph.h>

/*
 * Reading DOT text with object ids that follow the text, not the heap.
 *
 * cgraph's default id discipline makes the id of a named object the address of its interned name,
 * and keeps subgraphs ordered by id. Where clusters are laid out and in which order they are
 * written to SVG therefore depended on where malloc put their names: the same DOT text gave
 * different SVG from run to run. This discipline numbers names in the order the parser first
 * meets them (even ids 2, 4, …; anonymous objects get odd ids, as in cgraph's own), so one DOT
 * text always gives the same layout and the same bytes.
 *
 * Everything here is called with the process-wide Graphviz lock held (LifelineRender.Graphviz).
 */

/* The first graph of the NUL-terminated DOT `text`, read with the discipline above; NULL when the
   text holds no graph or does not parse (Graphviz's message is in its error buffer). */
Agraph_t *lifeline_read_dot(const char *text);

#endif
