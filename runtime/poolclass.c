/* poolclass.c: stub, to be written. */
