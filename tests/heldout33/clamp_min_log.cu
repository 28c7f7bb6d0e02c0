// y = log_base(max(mel, clip)) with base 10 and clip = 1e-10: Whisper's `log_spec = torch.clamp(mel_spec, min=1e-10).log10()` (the clamp-min then log that starts its log-Mel spectrogram; HiFi-GAN's `torch.log(torch.clamp(x, min=1e-5))` is the same with base e), on [128, 80, 3000] fp32 Mel powers (128 clips of 30 s, 80 Mel bins, 3000 frames); a `while` grid-stride loop capped at 2048 blocks of 256 (about 59 elements a thread at the benchmark size) with the stride taken from `gridDim`, `unsigned int` indices, `__ldg` loads, a ternary clamp, and a `switch` on a small `int` parameter choosing logf, log2f or log10f (the contract passes 2, log10), clip a float argument with its own contract line.

/* @optiml
   sizes:   B=128 M=80 T=3000   # mel 117.2 MiB in, y 117.2 MiB out; 61 MFLOP
   check:   B=1 M=1 T=1; B=1 M=3 T=7; B=2 M=80 T=33; B=1 M=5 T=257; B=2 M=1 T=129; B=3 M=80 T=3000
   mel:     in  float[B*M*T] uniform(-0.5,4)
   y:       out float[B*M*T]
   clip:    1e-10
   base:    2
   launch:  grid=min(cdiv(B*M*T,256),2048) block=256
   flops:   2*B*M*T
*/
__global__ void clamp_min_log(const float* mel, float* y, float clip, int base, int B, int M, int T)
{
    const unsigned int n = (unsigned int)B * M * T;
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    while (i < n) {
        float v = __ldg(mel + i);
        v = v < clip ? clip : v;
        switch (base) {
        case 0:
            y[i] = logf(v);
            break;
        case 1:
            y[i] = log2f(v);
            break;
        default:
            y[i] = log10f(v);
            break;
        }
        i += gridDim.x * blockDim.x;
    }
}
