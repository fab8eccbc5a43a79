"""voice_host: an offline, voice-driven host for the party game Articulate!."""

import os

# onnxruntime (Moonshine base-en's runtime) sends telemetry from Linux since 1.29: a
# device id and events kept under ~/.cache/Microsoft, uploaded to Microsoft's
# collector a few seconds after a model loads.  Nothing here may use the network, so
# it is switched off before any module can load onnxruntime (it reads this once).
os.environ["ORT_DISABLE_TELEMETRY"] = "1"

__version__ = "0.1.0"
