module secrets

go 1.19
