#!/usr/bin/env python3
"""PyTorch's side of rill's GPU figures, for scripts/gpu-figures.sh on the GPU machine
(whose python3 has PyTorch): the same models, batches and optimizers as rill's examples,
in PyTorch's eager mode, on the same GPU, so the two are timed in one command.

  torch_peer.py cifar   [--steps N] [--tf32]   3072-3000-1000-10 MLP (ReLU, ReLU, sigmoid),
                                               Keras's categorical cross-entropy, SGD 0.01,
                                               batch 32 (examples/train_cifar_mlp)
  torch_peer.py mnist   [--steps N] [--tf32]   conv 5x5x32 'same' ReLU, max-pool 2, conv
                                               5x5x64, max-pool 2, dense 1024 ReLU, dropout
                                               0.5, dense 10, sparse cross-entropy, Adam 1e-4,
                                               batch 50 (examples/train_mnist_cnn, conv2)
  torch_peer.py matmul  [--sizes 256,...] [--tf32]   C = A B of n x n float32 matrices

Each training step uploads its batch from pinned host memory (rill's steps feed theirs
from the host too), then runs forward, backward and the update. A step's time is the
time of a window of steps (the GPU waited for at its end) over the window's length; the
median over windows is printed, as "torch <what> ms/step <median>". Matmul prints the
median of cuda-event timed products per size: "torch matmul n <n> ms <t> TFLOP/s <f>".
Data are random (the timing does not depend on their values).
"""
import argparse
import statistics
import time


def parse():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("what", choices=["cifar", "mnist", "matmul"])
    p.add_argument("--steps", type=int, default=300, help="timed steps (after 30 warm-up)")
    p.add_argument("--window", type=int, default=50, help="steps a window")
    p.add_argument("--sizes", default="256,1024,2048,4096,8192")
    p.add_argument("--reps", type=int, default=20, help="timed products per size")
    p.add_argument("--tf32", action="store_true", help="let matmuls and convolutions use TF32")
    return p.parse_args()


def cifar_model(torch):
    nn = torch.nn
    return nn.Sequential(nn.Flatten(), nn.Linear(3072, 3000), nn.ReLU(), nn.Linear(3000, 1000),
                         nn.ReLU(), nn.Linear(1000, 10), nn.Sigmoid())


def keras_categorical_crossentropy(torch, p, y):
    # Keras scales the predictions to sum to 1 and clips them to [eps, 1 - eps].
    p = p / p.sum(dim=1, keepdim=True)
    p = p.clamp(1e-7, 1 - 1e-7)
    return -(y * p.log()).sum(dim=1).mean()


def mnist_model(torch):
    nn = torch.nn
    return nn.Sequential(nn.Conv2d(1, 32, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Conv2d(32, 64, 5, padding=2), nn.ReLU(), nn.MaxPool2d(2),
                         nn.Flatten(), nn.Linear(64 * 7 * 7, 1024), nn.ReLU(), nn.Dropout(0.5),
                         nn.Linear(1024, 10))


def batches(torch, what, count):
    """`count` batches in pinned host memory: (inputs, targets)."""
    out = []
    for _ in range(count):
        if what == "cifar":
            x = torch.rand(32, 32, 32, 3)
            y = torch.nn.functional.one_hot(torch.randint(0, 10, (32,)), 10).float()
        else:
            x = torch.rand(50, 1, 28, 28)
            y = torch.randint(0, 10, (50,))
        out.append((x.pin_memory(), y.pin_memory()))
    return out


def train(torch, args):
    dev = torch.device("cuda")
    if args.what == "cifar":
        model = cifar_model(torch).to(dev)
        opt = torch.optim.SGD(model.parameters(), lr=0.01)
        loss_fn = lambda out, y: keras_categorical_crossentropy(torch, out, y)
    else:
        model = mnist_model(torch).to(dev)
        opt = torch.optim.Adam(model.parameters(), lr=1e-4)
        loss_fn = torch.nn.functional.cross_entropy
    model.train()
    data = batches(torch, args.what, 8)

    def step(i):
        x, y = data[i % len(data)]
        x = x.to(dev, non_blocking=True)
        y = y.to(dev, non_blocking=True)
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()

    for i in range(30):
        step(i)
    torch.cuda.synchronize()
    windows = []
    done = 0
    while done < args.steps:
        n = min(args.window, args.steps - done)
        t0 = time.perf_counter()
        for i in range(n):
            step(done + i)
        torch.cuda.synchronize()
        windows.append((time.perf_counter() - t0) * 1e3 / n)
        done += n
    print(f"torch {args.what} ms/step {statistics.median(windows):.4f} "
          f"(windows of {args.window}: {', '.join(f'{w:.4f}' for w in windows)})")


def matmul(torch, args):
    dev = torch.device("cuda")
    for n in [int(s) for s in args.sizes.split(",") if s]:
        a = torch.randn(n, n, device=dev)
        b = torch.randn(n, n, device=dev)
        for _ in range(3):
            torch.mm(a, b)
        times = []
        for _ in range(args.reps):
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            torch.mm(a, b)
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end))
        t = statistics.median(times)
        print(f"torch matmul n {n} ms {t:.4f} TFLOP/s {2.0 * n ** 3 / (t * 1e-3) / 1e12:.2f}"
              f"{' (tf32)' if args.tf32 else ''}")


def main():
    args = parse()
    import torch  # only here: the help text works without PyTorch
    if not torch.cuda.is_available():
        raise SystemExit("torch_peer: no GPU visible to PyTorch")
    torch.backends.cuda.matmul.allow_tf32 = args.tf32
    torch.backends.cudnn.allow_tf32 = args.tf32
    torch.backends.cudnn.benchmark = True
    print(f"torch {torch.__version__} on {torch.cuda.get_device_name()}")
    if args.what == "matmul":
        matmul(torch, args)
    else:
        train(torch, args)


if __name__ == "__main__":
    main()
