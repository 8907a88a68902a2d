// libxml2's HTML parser and tree (the HTML chart tables, ChartFormats' HTMLTable), loaded on
// first use: with it, ICU and liblzma, which it needs.
#include "lazy.h"

// As CLibXML2's shim: ICU's part of libxml2's headers is left out.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/tree.h>

CHART_ARCHIVE_HIDDEN struct chart_archive_library chart_archive_xml2 = {"libxml2.so.2", 0};

LAZY(chart_archive_xml2, htmlDocPtr, htmlReadMemory,
  (const char *buffer, int size, const char *URL, const char *encoding, int options),
  (buffer, size, URL, encoding, options))
LAZY(chart_archive_xml2, xmlNodePtr, xmlDocGetRootElement, (const xmlDoc *doc), (doc))
LAZY_VOID(chart_archive_xml2, xmlFreeDoc, (xmlDocPtr cur), (cur))
LAZY(chart_archive_xml2, long, xmlGetLineNo, (const xmlNode *node), (node))
LAZY_VOID(chart_archive_xml2, xmlInitParser, (void), ())
