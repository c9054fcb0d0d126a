/* The other unit of promote.c (t-promote.sh): hidden is static here. */
typedef long (*op_fn)(long);

static long hidden(long x)
{
    return x * 5 + 3;
}

op_fn hidden_op(void)
{
    return hidden;
}
