def weigh(grams):
    return grams + 1
