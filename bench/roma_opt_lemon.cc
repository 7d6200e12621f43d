// roma_opt_lemon.cc — exact maximum-weight matching of a Matrix Market
// coordinate graph (as `coarsen gen -o FILE.mtx` writes: one triangle,
// 1-based, "i j w" lines, pattern = weight 1; weights taken as |w| and
// diagonal entries dropped, as coarsen's graph builder does) with LEMON's
// MaxWeightedMatching; prints the optimum weight. Used by bench/roma_gto.sh
// for the gap to optimality; built there with g++ (Debian liblemon-dev).
#include <lemon/list_graph.h>
#include <lemon/matching.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s GRAPH.mtx\n", argv[0]);
        return 2;
    }
    FILE *f = std::fopen(argv[1], "r");
    if (!f) {
        std::perror(argv[1]);
        return 2;
    }
    char buf[512];
    bool pattern = false, header = true;
    long rows = 0, cols = 0, nnz = 0;
    lemon::ListGraph g;
    lemon::ListGraph::EdgeMap<double> w(g);
    std::vector<lemon::ListGraph::Node> nodes;
    while (std::fgets(buf, sizeof buf, f)) {
        if (buf[0] == '%') {
            if (header && std::strstr(buf, "pattern"))
                pattern = true;
            header = false;
            continue;
        }
        if (nodes.empty() && rows == 0) {
            std::sscanf(buf, "%ld %ld %ld", &rows, &cols, &nnz);
            for (long i = 0; i < rows; i++)
                nodes.push_back(g.addNode());
            continue;
        }
        long i, j;
        double x = 1.0;
        int got = std::sscanf(buf, "%ld %ld %lf", &i, &j, &x);
        if (got < 2 || i == j || i < 1 || j < 1 || i > rows || j > rows)
            continue;
        if (got == 2 || pattern)
            x = 1.0;
        w[g.addEdge(nodes[i - 1], nodes[j - 1])] = std::fabs(x);
    }
    std::fclose(f);
    lemon::MaxWeightedMatching<lemon::ListGraph, lemon::ListGraph::EdgeMap<double>> m(g, w);
    m.run();
    std::printf("%.17g\n", m.matchingWeight());
    return 0;
}
