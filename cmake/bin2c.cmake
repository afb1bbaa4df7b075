# cmake -DIN=file -DOUT=file.c -DNAME=symbol -P bin2c.cmake
# Writes `const unsigned char NAME[]` and `const unsigned long NAME_size`.
file(READ ${IN} hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n    " body "${body}")
file(WRITE ${OUT} "/* Generated from ${IN} by cmake/bin2c.cmake. */\n"
     "const unsigned char ${NAME}[] = {\n    ${body}\n};\n"
     "const unsigned long ${NAME}_size = ${bytes};\n")
