# Run by 2026-12-05-h100-flat-finish/command.sh (its last step); torch_1.csv is torch.cumsum.
