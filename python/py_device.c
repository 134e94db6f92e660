/* py_device.c: stub, to be written. */
