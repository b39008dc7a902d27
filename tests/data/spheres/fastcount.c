/* fastcount: every exact cover of at most 64 balls by shapes used once each, for
 * oracle.py's larger puzzles (the pyramid of 55 balls takes about 35 million nodes, too
 * many for its Python search). Input: oracle.py FILE --rows. Output: one line per solution,
 * the row numbers it uses; the number of solutions and of nodes on stderr. The search
 * branches on the uncovered ball with the fewest fitting rows (Knuth's MRV heuristic).
 *
 *     cc -O2 -o fastcount fastcount.c
 *     python3 oracle.py FILE --rows | ./fastcount > sols.txt
 *     python3 oracle.py FILE --solutions sols.txt
 */
#include <stdio.h>
#include <stdint.h>

#define MAX_ROWS 20000
#define MAX_PER_BALL 4000

typedef uint64_t u64;
static int nball, nshape, nrow;
static int shape_of[MAX_ROWS];
static u64 mask[MAX_ROWS];
static int by_ball[64][MAX_PER_BALL], n_by_ball[64];
static int chosen[64], depth;
static u64 full;
static long long solutions, nodes;

static void search(u64 filled, u64 used)
{
    nodes++;
    if (filled == full) {
        solutions++;
        for (int d = 0; d < depth; d++)
            printf(d ? " %d" : "%d", chosen[d]);
        printf("\n");
        return;
    }
    int best = -1, best_n = MAX_ROWS + 1;
    for (u64 open = full & ~filled; open; open &= open - 1) {
        int b = __builtin_ctzll(open), n = 0;
        for (int k = 0; k < n_by_ball[b]; k++) {
            int r = by_ball[b][k];
            n += !(used >> shape_of[r] & 1) && !(mask[r] & filled);
        }
        if (n < best_n) {
            best_n = n;
            best = b;
            if (n == 0)
                return;
        }
    }
    for (int k = 0; k < n_by_ball[best]; k++) {
        int r = by_ball[best][k];
        if ((used >> shape_of[r] & 1) || (mask[r] & filled))
            continue;
        chosen[depth++] = r;
        search(filled | mask[r], used | (u64)1 << shape_of[r]);
        depth--;
    }
}

int main(void)
{
    if (scanf("%d %d %d", &nball, &nshape, &nrow) != 3 || nball < 1 || nball > 64 ||
        nshape < 1 || nshape > 64 || nrow < 0 || nrow > MAX_ROWS) {
        fprintf(stderr, "fastcount: bad header (balls 1-64, shapes 1-64, rows <= %d)\n", MAX_ROWS);
        return 2;
    }
    for (int i = 0; i < nrow; i++) {
        unsigned long long m;
        if (scanf("%d %llu", &shape_of[i], &m) != 2 || shape_of[i] < 0 || shape_of[i] >= nshape) {
            fprintf(stderr, "fastcount: bad row %d\n", i);
            return 2;
        }
        mask[i] = m;
        for (u64 b = m; b; b &= b - 1) {
            int ball = __builtin_ctzll(b);
            if (ball >= nball || n_by_ball[ball] == MAX_PER_BALL) {
                fprintf(stderr, "fastcount: row %d: ball out of range or too many rows\n", i);
                return 2;
            }
            by_ball[ball][n_by_ball[ball]++] = i;
        }
    }
    full = nball == 64 ? ~(u64)0 : ((u64)1 << nball) - 1;
    search(0, 0);
    fprintf(stderr, "%lld solutions, %lld nodes\n", solutions, nodes);
    return 0;
}
