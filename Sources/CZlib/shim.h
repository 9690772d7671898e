// zlib, for inflating the raw DEFLATE of Core Data's model cache.
#include <zlib.h>
