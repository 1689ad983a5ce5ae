this is not read
