"""Appeals to the village's appeals board, and variances."""
