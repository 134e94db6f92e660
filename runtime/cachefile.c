/* cachefile.c: stub, to be written. */
