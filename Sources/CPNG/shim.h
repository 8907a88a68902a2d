// libpng (Debian: libpng-dev), for the tests only: its simplified API reads the browser's
// screenshots into pixels.
#include <png.h>
