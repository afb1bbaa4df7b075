/* Found only through `warpscope cc -iquote quoted`. */
#define SCALE 3
