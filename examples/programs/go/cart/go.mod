module cart

go 1.19
