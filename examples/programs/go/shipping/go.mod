module shipping

go 1.19
