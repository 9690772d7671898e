#ifndef FERRY_CLIBARCHIVE_SHIM_H
#define FERRY_CLIBARCHIVE_SHIM_H

#include <archive.h>
#include <archive_entry.h>

// The AE_IF* file-type constants are octal macros built from other macros, which Swift does
// not import; re-export them as constants.
static const unsigned int FERRY_AE_IFMT = AE_IFMT;
static const unsigned int FERRY_AE_IFREG = AE_IFREG;
static const unsigned int FERRY_AE_IFLNK = AE_IFLNK;
static const unsigned int FERRY_AE_IFSOCK = AE_IFSOCK;
static const unsigned int FERRY_AE_IFCHR = AE_IFCHR;
static const unsigned int FERRY_AE_IFBLK = AE_IFBLK;
static const unsigned int FERRY_AE_IFDIR = AE_IFDIR;
static const unsigned int FERRY_AE_IFIFO = AE_IFIFO;

#endif
