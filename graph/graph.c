/* graph.c: stub, to be written. */
