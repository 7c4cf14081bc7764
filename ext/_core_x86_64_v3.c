/* The core compiled a second time, for x86-64-v3 CPUs (setup.py): the same
   generated source, a separate file so that its object file is its own. */
#include "_core.c"
