# empty module
