"""A second of video of any table (Don't Starve's map, Stonesaga's draw pad and tray) for
`tablesight scan`: the scene drawn once through a camera, then each frame given its own shake,
noise and JPEG (`greenwood_frames.video_frames` is this with its own camera and light)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.synthetic import Camera, Effects, SyntheticTable, render

DIM = Effects(blur=1.2, noise=3.0, uneven_light=0.3, glare=0.3, jpeg_quality=60)
"""One frame of a dim room: defocus, sensor noise, light falling off, a lamp, JPEG."""


def video_frames(
    scene: SyntheticTable,
    camera: Camera,
    count: int = 30,
    *,
    seed: int = 0,
    shake_px: float = 0.7,
    fx: Effects = DIM,
) -> list[np.ndarray]:
    """``count`` BGR frames of ``scene`` seen by ``camera``: each moved by its own shake (up to
    ``shake_px`` pixels and 0.05°) and given its own noise and JPEG."""
    clean = render(scene, camera, Effects(), seed=seed).image
    h, w = clean.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    light = 1 - fx.uneven_light * (xx / w + yy / h) / 2
    gx, gy = fx.glare_at[0] * w, fx.glare_at[1] * h
    glare = fx.glare * 255 * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (0.12 * w) ** 2))
    lit = cv2.GaussianBlur(clean, (0, 0), fx.blur).astype(np.float32) * light[..., None]
    lit = np.clip(lit + glare[..., None], 0, 255).astype(np.uint8)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        dx, dy = rng.uniform(-shake_px, shake_px, 2)
        m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-0.05, 0.05), 1.0)
        m[:, 2] += (dx, dy)
        frame = cv2.warpAffine(
            lit, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
        )
        noise = np.asarray(rng.normal(0.0, fx.noise, size=lit.shape), np.float32)
        frame = np.clip(np.asarray(frame, np.float32) + noise, 0, 255).astype(np.uint8)
        ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, fx.jpeg_quality or 90])
        assert ok
        out.append(np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR), dtype=np.uint8))
    return out
