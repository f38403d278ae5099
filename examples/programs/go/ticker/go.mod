module ticker

go 1.19
