// The Recommender module.
