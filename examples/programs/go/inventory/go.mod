module inventory

go 1.19
