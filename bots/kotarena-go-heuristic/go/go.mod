module kotarena.example/go-heuristic

go 1.19
