/* device.c: stub, to be written. */
