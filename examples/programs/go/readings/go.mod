module readings

go 1.19
