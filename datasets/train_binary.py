"""Training a small yes-or-no crop network: balanced batches for a fixed time, and its
probabilities on many crops. Shared by the stacked-tile network (``train_stack_crops``) and
the tile check (``train_tile_check``), which differ only in how a batch is drawn."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import torch
from torch import nn

from datasets.train import cosine_lr, export

#: a batch drawn with the generator: the network's input and the labels (1 yes, 0 no)
Draw = Callable[[np.random.Generator], tuple[np.ndarray, np.ndarray]]


class WithSigmoid(nn.Module):
    """The network as exported: its logit turned into the yes probability."""

    def __init__(self, net: nn.Module) -> None:
        super().__init__()
        self.net = net

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sigmoid(self.net(x))


def export_binary(net: nn.Module, side: int, path: Path) -> None:
    """Export a one-logit crop network with its sigmoid, for ``side``×``side`` crops in
    batches of any size."""
    export(
        WithSigmoid(net),
        torch.zeros(1, 3, side, side),
        path,
        {"input": {0: "n"}, "output": {0: "n"}},
    )


def train_balanced(
    net: nn.Module, draw: Draw, seconds: float, lr: float, log: Callable[[str], None]
) -> None:
    """Batches from ``draw`` (seeded, so a run repeats) until ``seconds`` have passed, AdamW
    with a cosine learning rate, the running loss logged every 200 steps."""
    rng = np.random.default_rng(0)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    loss_fn = nn.BCEWithLogitsLoss()
    start, step, run, size = time.time(), 0, 0.0, 0
    net.train()
    while (spent := time.time() - start) < seconds:
        cosine_lr(opt, lr, spent / seconds)
        xb, yb = draw(rng)
        size = len(yb)
        loss = loss_fn(net(torch.from_numpy(xb)).squeeze(1), torch.from_numpy(yb))
        opt.zero_grad()
        loss.backward()
        opt.step()
        run = 0.98 * run + 0.02 * loss.item() if step else loss.item()
        step += 1
        if step % 200 == 0:
            log(f"step {step} loss {run:.4f} ({spent:.0f}/{seconds:.0f} s)")
    log(f"trained {step} steps of {size}")


def predict(
    net: nn.Module,
    x: np.ndarray,
    as_input: Callable[[Sequence[np.ndarray]], np.ndarray],
    batch: int = 256,
) -> np.ndarray:
    """The network's yes probability for each crop of ``x`` (BGR uint8), ``batch`` at a time."""
    net.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(x), batch):
            out.append(torch.sigmoid(net(torch.from_numpy(as_input(list(x[i : i + batch]))))))
    return torch.cat(out).squeeze(1).numpy() if out else np.zeros(0, np.float32)
