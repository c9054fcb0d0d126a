/* copycalls.c's plain_xor, compiled without the plugin (t-copy-calls.sh). */
int plain_xor(int x)
{
    return x ^ 1;
}
