// frames[b, f, k] = window[k] * xpad[b, f * hop + k], xpad = F.pad(x, (n_fft // 2, n_fft // 2), mode="reflect") (reflection without repeating the edge sample), f < 1 + (L + 2 (n_fft // 2) - n_fft) // hop: the windowed frames that `torch.stft(x, n_fft, hop, window=window, center=True, pad_mode="reflect")` feeds to its FFT (`x.unfold(-1, n_fft, hop) * window` after the centre padding), at Whisper's front end: 32 clips of 30 s at 16 kHz (480000 samples), n_fft 400, hop 160, 3001 frames a clip; written as a CuPy `RawKernel` source: `extern "C" __global__`, the sizes as `long long B, long long L` and `int n_fft, int hop`, the frame count computed in the kernel, one thread per output element with the flat `long long` index split by `%` and `/` into (b, f, k), the reflection done by two ternaries on a signed source position; the window `uniform(0,1)` (a Hann window's range), the signal `uniform(-1,1)`.

/* @optiml
   sizes:  B=32 L=480000 n_fft=400 hop=160   # x 58.6 MiB in, frames 146.5 MiB out (38.4 M elements), window 1.6 KiB; 38 MFLOP
   check:  B=1 L=2 n_fft=2 hop=1; B=3 L=5 n_fft=4 hop=2; B=1 L=3 n_fft=3 hop=1; B=2 L=257 n_fft=64 hop=16; B=5 L=333 n_fft=31 hop=7; B=1 L=1001 n_fft=400 hop=160; B=2 L=4000 n_fft=400 hop=160
   x:      in  float[B*L]
   window: in  float[n_fft] uniform(0,1)
   frames: out float[B*((L+2*(n_fft/2)-n_fft)/hop+1)*n_fft]
   launch: grid=cdiv(B*((L+2*(n_fft/2)-n_fft)/hop+1)*n_fft,256) block=256
   flops:  B*((L+2*(n_fft/2)-n_fft)/hop+1)*n_fft
   tol:    1e-6
*/
extern "C" __global__
void stft_frames(const float* __restrict__ x, const float* __restrict__ window, float* __restrict__ frames,
                 long long B, long long L, int n_fft, int hop)
{
    long long pad = n_fft / 2;
    long long n_frames = 1 + (L + 2 * pad - n_fft) / hop;
    long long total = B * n_frames * n_fft;
    long long tid = (long long)blockDim.x * blockIdx.x + threadIdx.x;
    if (tid >= total) return;

    int k = (int)(tid % n_fft);
    long long f = (tid / n_fft) % n_frames;
    long long b = tid / ((long long)n_fft * n_frames);

    long long src = f * hop + k - pad;            // position in the unpadded signal
    src = (src < 0) ? -src : src;                 // reflect at the left edge
    src = (src >= L) ? 2 * (L - 1) - src : src;   // reflect at the right edge
    frames[tid] = x[b * L + src] * window[k];
}
