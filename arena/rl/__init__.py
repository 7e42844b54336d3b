"""Arena's games as reinforcement-learning environments (the ``rl`` extra): PettingZoo and Gymnasium."""
