/* placeholder.c - keeps tny_io non-empty until the event-file parser lands. */
#include "tny/presets.h"
