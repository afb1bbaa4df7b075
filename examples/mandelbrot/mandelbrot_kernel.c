#include <warpscope/kernel.h>

/* Iteration count of the Mandelbrot recurrence for each pixel. Built with
 * -ffp-contract=off so the host can check every pixel exactly. */
WS_KERNEL void mandelbrot(int *iters, int width, int height, float x0, float y0, float dx,
                          float dy, int max_iter)
{
    int px = (int)(blockIdx_x() * blockDim_x() + threadIdx_x());
    int py = (int)(blockIdx_y() * blockDim_y() + threadIdx_y());
    if (px >= width || py >= height) return;
    float cx = x0 + (float)px * dx, cy = y0 + (float)py * dy;
    float x = 0.0f, y = 0.0f;
    int i = 0;
    while (i < max_iter && x * x + y * y <= 4.0f) {
        float t = x * x - y * y + cx;
        y = 2.0f * x * y + cy;
        x = t;
        i++;
    }
    iters[py * width + px] = i;
}
