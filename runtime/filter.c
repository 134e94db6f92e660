/* filter.c: stub, to be written. */
