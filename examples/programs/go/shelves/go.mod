module shelves

go 1.19
