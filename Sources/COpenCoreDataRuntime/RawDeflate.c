#include "COpenCoreDataRuntime.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

// Raw DEFLATE streams (RFC 1951, no zlib or gzip header), as Core Data stores a model in Z_MODELCACHE:
// zlib with a window of -15 bits.

/// zlib takes at most UINT_MAX bytes a call.
static uInt ocd_chunk(size_t remaining) {
    return remaining > UINT_MAX ? UINT_MAX : (uInt)remaining;
}

int ocd_inflateRaw(const void *input, size_t inputLength, size_t outputLimit,
                   void **output, size_t *outputLength) {
    *output = NULL;
    *outputLength = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit2(&stream, -15) != Z_OK) return OCD_DEFLATE_NO_MEMORY;
    size_t capacity = inputLength < 1024 ? 4096 : inputLength * 4;
    if (capacity > outputLimit) capacity = outputLimit > 0 ? outputLimit : 1;
    unsigned char *buffer = malloc(capacity);
    if (buffer == NULL) {
        inflateEnd(&stream);
        return OCD_DEFLATE_NO_MEMORY;
    }
    const unsigned char *next = input;
    size_t inputLeft = inputLength;
    size_t produced = 0;
    int result = OCD_DEFLATE_CORRUPT;
    for (;;) {
        if (produced == capacity) {
            if (capacity >= outputLimit) {
                result = OCD_DEFLATE_TOO_LARGE;
                break;
            }
            size_t grown = capacity > outputLimit / 2 ? outputLimit : capacity * 2;
            unsigned char *larger = realloc(buffer, grown);
            if (larger == NULL) {
                result = OCD_DEFLATE_NO_MEMORY;
                break;
            }
            buffer = larger;
            capacity = grown;
        }
        if (stream.avail_in == 0 && inputLeft > 0) {
            stream.next_in = (Bytef *)next;
            stream.avail_in = ocd_chunk(inputLeft);
            next += stream.avail_in;
            inputLeft -= stream.avail_in;
        }
        stream.next_out = buffer + produced;
        stream.avail_out = ocd_chunk(capacity - produced);
        uInt before = stream.avail_out;
        int status = inflate(&stream, Z_NO_FLUSH);
        produced += before - stream.avail_out;
        if (status == Z_STREAM_END) {
            result = OCD_DEFLATE_OK;
            break;
        }
        if (status == Z_BUF_ERROR && stream.avail_in == 0 && inputLeft == 0) {
            // The input ended before the stream did: a truncated stream.
            result = OCD_DEFLATE_TRUNCATED;
            break;
        }
        if (status == Z_MEM_ERROR) {
            result = OCD_DEFLATE_NO_MEMORY;
            break;
        }
        if (status != Z_OK && status != Z_BUF_ERROR) {
            result = OCD_DEFLATE_CORRUPT;
            break;
        }
    }
    inflateEnd(&stream);
    if (result != OCD_DEFLATE_OK) {
        free(buffer);
        return result;
    }
    *output = buffer;
    *outputLength = produced;
    return OCD_DEFLATE_OK;
}

int ocd_deflateRaw(const void *input, size_t inputLength, int level, void **output, size_t *outputLength) {
    *output = NULL;
    *outputLength = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) return OCD_DEFLATE_NO_MEMORY;
    size_t capacity = inputLength + inputLength / 1000 + 64;
    if (inputLength <= ULONG_MAX) {
        uLong bound = deflateBound(&stream, (uLong)inputLength);
        if (bound > capacity) capacity = bound;
    }
    unsigned char *buffer = malloc(capacity);
    if (buffer == NULL) {
        deflateEnd(&stream);
        return OCD_DEFLATE_NO_MEMORY;
    }
    const unsigned char *next = input;
    size_t inputLeft = inputLength;
    size_t produced = 0;
    int result = OCD_DEFLATE_OK;
    for (;;) {
        if (stream.avail_in == 0 && inputLeft > 0) {
            stream.next_in = (Bytef *)next;
            stream.avail_in = ocd_chunk(inputLeft);
            next += stream.avail_in;
            inputLeft -= stream.avail_in;
        }
        if (produced == capacity) {
            unsigned char *larger = realloc(buffer, capacity * 2);
            if (larger == NULL) {
                result = OCD_DEFLATE_NO_MEMORY;
                break;
            }
            buffer = larger;
            capacity *= 2;
        }
        stream.next_out = buffer + produced;
        stream.avail_out = ocd_chunk(capacity - produced);
        uInt before = stream.avail_out;
        int status = deflate(&stream, inputLeft == 0 ? Z_FINISH : Z_NO_FLUSH);
        produced += before - stream.avail_out;
        if (status == Z_STREAM_END) break;
        if (status != Z_OK && status != Z_BUF_ERROR) {
            result = OCD_DEFLATE_CORRUPT;
            break;
        }
    }
    deflateEnd(&stream);
    if (result != OCD_DEFLATE_OK) {
        free(buffer);
        return result;
    }
    *output = buffer;
    *outputLength = produced;
    return OCD_DEFLATE_OK;
}

void ocd_freeDeflateBuffer(void *buffer) {
    free(buffer);
}
