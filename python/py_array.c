/* py_array.c: stub, to be written. */
