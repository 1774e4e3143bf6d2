/*
 * iolog.h — the record format shared by the I/O recorder (iolog.c, an
 * LD_PRELOAD shim) and the power-cut replayer (powercut.c). One record per
 * event, appended with one write() so records of several processes and
 * threads never interleave.
 */
#ifndef H2EMV_FAULT_IOLOG_H
#define H2EMV_FAULT_IOLOG_H

#include <stdint.h>

/* Record types. Files are named by inode number (stable across processes
 * and renames); a create starts a new incarnation of that number. */
enum {
	IOLOG_BASE = 1,   /* a file present before recording: name, ino, content */
	IOLOG_CREATE,     /* name, ino: a new empty file linked under name (a directory op) */
	IOLOG_WRITE,      /* ino, off, data: bytes written (in the page cache, not durable) */
	IOLOG_DSYNCW,     /* ino, off, data: a write through an O_DSYNC/O_SYNC descriptor:
	                     durable when it returned */
	IOLOG_TRUNC,      /* ino, off = new length */
	IOLOG_SYNC,       /* ino: fsync/fdatasync/msync returned: its data is durable */
	IOLOG_SNAPSHOT,   /* ino, name, data: the whole content at a sync through a
	                     descriptor the shim did not see opened (stdio, inherited) */
	IOLOG_RENAME,     /* name = "old\0new", ino = the renamed file (a directory op) */
	IOLOG_UNLINK,     /* name (a directory op) */
	IOLOG_DIRSYNC,    /* fsync of the memory directory: directory ops are durable */
	IOLOG_ACK         /* data: bytes the program wrote to the acknowledgement fd */
};

#define IOLOG_MAGIC 0x474f4c49u /* "ILOG" */

typedef struct iolog_rec {
	uint32_t magic;
	uint32_t type;
	uint32_t pid;
	uint32_t namelen; /* bytes of name after the header */
	uint64_t ino;
	uint64_t off;
	uint64_t len;     /* bytes of data after the name */
} iolog_rec;

#endif
