module kj

go 1.26.8
