/*
 * iofail.h — I/O errors injected with libfiu (iofail.c), run by fault_tool.
 */
#ifndef H2EMV_FAULT_IOFAIL_H
#define H2EMV_FAULT_IOFAIL_H

/* `fault_tool iofail [options]`; returns the exit status (77: fiu-run is
 * not installed). `self` is the path of fault_tool. */
int iofail_main(int argc, char **argv, const char *self);

#endif
