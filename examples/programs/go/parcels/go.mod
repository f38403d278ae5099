module parcels

go 1.19
