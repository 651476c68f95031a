/* glicko2.c: the steps of Glickman's paper, numbered as there. */
#include "core/glicko2.h"

#include <math.h>

/* Step 2's conversion between the Glicko scale and Glicko-2's. */
#define SCALE 173.7178
/* Step 5's convergence tolerance, the paper's. */
#define EPSILON 0.000001

static double g_of(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

static double expected(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-g_of(phi_j) * (mu - mu_j)));
}

/* Step 5's f(x). */
static double f_of(double x, double delta, double phi, double v, double a,
                   double tau)
{
    double ex = exp(x);
    double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) -
           (x - a) / (tau * tau);
}

/* Step 5: the new volatility, by the Illinois algorithm. */
static double new_volatility(double sigma, double delta, double phi, double v,
                             double tau)
{
    double a = log(sigma * sigma);
    double big_a = a, big_b;
    if (delta * delta > phi * phi + v) {
        big_b = log(delta * delta - phi * phi - v);
    } else {
        int k = 1;
        while (f_of(a - k * tau, delta, phi, v, a, tau) < 0 && k < 1000)
            k++;
        big_b = a - k * tau;
    }
    double f_a = f_of(big_a, delta, phi, v, a, tau);
    double f_b = f_of(big_b, delta, phi, v, a, tau);
    for (int i = 0; fabs(big_b - big_a) > EPSILON && i < 1000; i++) {
        double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        double f_c = f_of(big_c, delta, phi, v, a, tau);
        if (f_c * f_b <= 0) {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    return exp(big_a / 2.0);
}

glicko2_rating glicko2_update(glicko2_rating player, const glicko2_game *games,
                              int count, double tau)
{
    double mu = (player.rating - 1500.0) / SCALE;
    double phi = player.deviation / SCALE;
    double sigma = player.volatility;
    if (count <= 0) {
        /* Step 6 alone: the deviation grows with time unplayed. */
        double grown = sqrt(phi * phi + sigma * sigma);
        return (glicko2_rating){player.rating, grown * SCALE, sigma};
    }
    /* Steps 3 and 4: the estimated variance and improvement. */
    double v_inverse = 0, sum = 0;
    for (int j = 0; j < count; j++) {
        double mu_j = (games[j].opponent.rating - 1500.0) / SCALE;
        double phi_j = games[j].opponent.deviation / SCALE;
        double g = g_of(phi_j);
        double e = expected(mu, mu_j, phi_j);
        v_inverse += g * g * e * (1.0 - e);
        sum += g * (games[j].score - e);
    }
    double v = 1.0 / v_inverse;
    double delta = v * sum;
    double sigma_new = new_volatility(sigma, delta, phi, v, tau);
    /* Steps 6 to 8. */
    double phi_star = sqrt(phi * phi + sigma_new * sigma_new);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    return (glicko2_rating){SCALE * mu_new + 1500.0, SCALE * phi_new,
                            sigma_new};
}
