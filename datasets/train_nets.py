"""The two networks in plain torch (no torchvision): tile detector and tile classifier.

Shapes match ``vision/detect.py`` (1×3×H×W in, 1×6×H/4×W/4 out, or 1×7×… with the stacked map)
and ``vision/classify.py`` (N×3×64×48 in, N×len(CLASSES) logits out).
"""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F  # noqa: N812


def cbr(cin: int, cout: int, stride: int = 1) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class Block(nn.Module):
    """Two 3×3 convs with a skip."""

    def __init__(self, ch: int) -> None:
        super().__init__()
        self.a = cbr(ch, ch)
        self.b = nn.Sequential(nn.Conv2d(ch, ch, 3, 1, 1, bias=False), nn.BatchNorm2d(ch))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.relu(x + self.b(self.a(x)))


class DetNet(nn.Module):
    """Stride-32 encoder, top-down FPN to stride 4, six-map head.

    ``stacked`` adds a seventh map from its own small branch (``stack``, reading the FPN's
    stride-4 features, the stride-4 encoder's and, through ``stack_fine``, the stride-2
    encoder's, where a tile's edge is still a few pixels): the logit that the tile centred
    there lies on another tile or has one lying on it — a kakan's added tile on its called one
    (§23), which the detector sees as a single tile (datasets/train_stack.py trains it alone).
    """

    def __init__(self, width: int = 1, stacked: bool = False) -> None:
        super().__init__()
        c = [16, 32, 48, 96, 160]
        self.s2 = cbr(3, c[0], 2)
        self.s4 = nn.Sequential(cbr(c[0], c[1], 2), Block(c[1]))
        self.s8 = nn.Sequential(cbr(c[1], c[2], 2), Block(c[2]))
        self.s16 = nn.Sequential(cbr(c[2], c[3], 2), Block(c[3]), Block(c[3]))
        self.s32 = nn.Sequential(cbr(c[3], c[4], 2), Block(c[4]), Block(c[4]))
        f = 64
        self.l32 = nn.Conv2d(c[4], f, 1)
        self.l16 = nn.Conv2d(c[3], f, 1)
        self.l8 = nn.Conv2d(c[2], f, 1)
        self.l4 = nn.Conv2d(c[1], f, 1)
        self.m16, self.m8, self.m4 = cbr(f, f), cbr(f, f), cbr(f, f)
        self.head = nn.Sequential(cbr(f, f), nn.Conv2d(f, 6, 1))
        nn.init.constant_(self.head[1].bias, 0.0)
        with torch.no_grad():
            self.head[1].bias[0] = -4.6  # heat prior ≈ 1 %
            self.head[1].bias[3:5] = 1.0
        self.stack: nn.Sequential | None = None
        self.stack_fine: nn.Sequential | None = None
        if stacked:
            self.stack_fine = cbr(c[0], 16, 2)
            self.stack = nn.Sequential(cbr(f + c[1] + 16, 48), cbr(48, 48), nn.Conv2d(48, 1, 1))
            nn.init.constant_(self.stack[2].bias, -3.0)  # few tiles are stacked

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x2 = self.s2(x)
        x4 = self.s4(x2)
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        x32 = self.s32(x16)
        p = self.l32(x32)
        p = self.m16(self.l16(x16) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        p = self.m8(self.l8(x8) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        p = self.m4(self.l4(x4) + F.interpolate(p, scale_factor=2.0, mode="nearest"))
        out = self.head(p)
        if self.stack is None or self.stack_fine is None:
            return out
        return torch.cat([out, self.stack(torch.cat([p, x4, self.stack_fine(x2)], 1))], 1)


class ClsNet(nn.Module):
    """VGG-ish colour classifier for 48×64 crops."""

    def __init__(self, n_classes: int) -> None:
        super().__init__()
        self.features = nn.Sequential(
            cbr(3, 24),
            nn.MaxPool2d(2),
            cbr(24, 48),
            Block(48),
            nn.MaxPool2d(2),
            cbr(48, 96),
            Block(96),
            nn.MaxPool2d(2),
            cbr(96, 160),
            Block(160),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(160, n_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        f = self.features(x).mean(dim=(2, 3))
        return self.fc(self.drop(f))
