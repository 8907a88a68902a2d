#include <stddef.h>
#include <yajl/yajl_parse.h>
