package p2l

// DiffModels is diffModels for the external test package.
var DiffModels = diffModels

// DiffLenient is diffLenient for the external test package.
var DiffLenient = diffLenient
