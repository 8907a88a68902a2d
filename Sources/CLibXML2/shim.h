// libxml2's HTML parser and its tree. Debian's libxml2 is built with ICU, whose headers its own
// encoding.h includes; they clash with the ICU headers that Foundation carries. Nothing here uses
// libxml2's encoding handlers (whose struct ICU changes, only ever reached through pointers), so
// the ICU part of its headers is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
